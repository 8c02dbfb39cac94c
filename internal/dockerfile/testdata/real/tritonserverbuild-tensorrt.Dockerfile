# Copied for devenv's tests from github.com/hieupth/tritonserverbuild, tensorrt.dockerfile, commit adbe0770aee55181ea6a594f5d1d50f9042115f5
ARG BASE=nvcr.io/nvidia/tensorrt:24.04-py3
ARG TARGET=hieupth/mamba

FROM ${BASE} as builder

FROM ${TARGET} as runtime
COPY --from=builder /opt/tensorrt /opt/tensorrt

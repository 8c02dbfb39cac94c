# Copied for devenv's tests from github.com/hieupth/tritonserverbuild, tensorrt.dockerfile, commit adbe0770aee55181ea6a594f5d1d50f9042115f5
ARG BASE=nvcr.io/nvidia/tensorrt:24.04-py3
ARG TARGET=hieupth/mamba

FROM 127.0.0.1:5000/nvidia/tensorrt@sha256:6f6ce1481bf2655213b1a01056d3f7198b79a2e826a57a57c8da040aa89b0a99 AS builder

FROM 127.0.0.1:5000/hieupth/mamba@sha256:eba25c92e042abb6413a269e9b860eb8d8ba48265ef4c1e10268d060f267a9d4 AS runtime
COPY --from=builder /opt/tensorrt /opt/tensorrt

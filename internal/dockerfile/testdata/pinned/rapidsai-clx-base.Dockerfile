# Copied for devenv's tests from github.com/rapidsai/docker, generated-dockerfiles/rapidsai-clx_ubuntu22.04-base.amd64.Dockerfile, commit e7866fc4d6d100d7558f5a3b5059c5ded237c47b (Apache-2.0)
# RAPIDS Dockerfile for ubuntu22.04 "base" image
#
# base: RAPIDS is installed from published conda packages to the 'rapids' conda
# environment.
#
# Copyright (c) 2023, NVIDIA CORPORATION.

ARG CUDA_VER=11.8
ARG LINUX_VER=ubuntu22.04
ARG PYTHON_VER=3.10
ARG RAPIDS_VER=23.04
ARG FROM_IMAGE=rapidsai/rapidsai-core

FROM 127.0.0.1:5000/rapidsai/rapidsai-core@sha256:fc3679ace783a5ce8036bb3c7496f4cc2182bcd00865783ad9e6717e6a7e1883

ARG RAPIDS_VER
ARG CUDA_VER

RUN gpuci_mamba_retry install -y -n rapids -c pytorch \
    "clx=${RAPIDS_VER}" \
    "cudatoolkit=${CUDA_VER}"


RUN chmod -R ugo+w /opt/conda ${CLX_DIR} \
  && conda clean -tipy \
  && chmod -R ugo+w /opt/conda ${CLX_DIR}
COPY entrypoint.sh /opt/docker/bin/entrypoint
ENTRYPOINT [ "/opt/conda/bin/tini", "--", "/opt/docker/bin/entrypoint" ]

CMD [ "/bin/bash" ]

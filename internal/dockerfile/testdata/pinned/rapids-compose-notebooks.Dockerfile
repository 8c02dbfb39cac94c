# Copied for devenv's tests from github.com/trxcllnt/rapids-compose, dockerfiles/notebooks.Dockerfile, commit 75852acaf40bb136b04fac65c2c1ce6629460ca0
ARG CUDA_VERSION=11.2.0
ARG RAPIDS_VERSION=latest
ARG RAPIDS_NAMESPACE=anon
FROM 127.0.0.1:5000/rapidsai/anon/rapids@sha256:792ae3aa224c6502d6f8017d930bd2f79291e0cdcf5da51f4b7aaf1424765bae

RUN apt update --fix-missing \
 && apt install -y --no-install-recommends \
    graphviz \
 && apt autoremove -y \
 && rm -rf /var/lib/apt/lists/* /tmp/* /var/tmp/* \
 && bash -c "echo -e '#!/bin/bash -e\n\
exec \"\$COMPOSE_HOME/etc/notebooks/start.sh\" \"\$@\"\n\
'" > /entrypoint.sh && chown ${_UID}:${_GID} /entrypoint.sh && chmod +x /entrypoint.sh

CMD ["jupyter-lab", "--ip=0.0.0.0", "--no-browser", "--NotebookApp.token=''"]

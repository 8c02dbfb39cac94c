# Copied for devenv's tests from github.com/ev-smoke/devops, Dockerfile, commit 413baefcb2009bea87a4f33fc6f4a5bdf5300951
FROM --platform=$BUILDPLATFORM quay.io/projectquay/golang:1.23 AS builder
ARG PLATFORM
ARG ARCH

WORKDIR /src
COPY . .

RUN CGO_ENABLED=0 GOOS=${PLATFORM} GOARCH=${ARCH} go build -o app

FROM scratch
COPY --from=builder /src/app .
ENTRYPOINT [ "/app" ]
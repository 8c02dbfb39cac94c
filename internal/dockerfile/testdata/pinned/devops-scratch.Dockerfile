# Copied for devenv's tests from github.com/ev-smoke/devops, Dockerfile, commit 413baefcb2009bea87a4f33fc6f4a5bdf5300951
FROM --platform=$BUILDPLATFORM 127.0.0.1:5000/projectquay/golang@sha256:2f21024f48a58e9c6f2d53a36ba9b0411ca70e42d6eef0589433b45300abda49 AS builder
ARG PLATFORM
ARG ARCH

WORKDIR /src
COPY . .

RUN CGO_ENABLED=0 GOOS=${PLATFORM} GOARCH=${ARCH} go build -o app

FROM scratch
COPY --from=builder /src/app .
ENTRYPOINT [ "/app" ]
FROM busybox:1
COPY . /srv

# A stand-in for the official `nginx` image, for machines that cannot pull images
# (docker/compose-test.sh makes it): Debian's nginx in the foreground, its configuration mounted
# at /etc/nginx/nginx.conf as with the official image.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]

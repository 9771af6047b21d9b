# A stand-in for the official `swift:*-bookworm` image, for machines that cannot pull images
# (docker/container-test.sh makes it). It holds the toolchain's runtime packages only: the
# toolchain itself is the host's, mounted read-only at the same path when the project is built
#   podman build -v "$TOOLCHAIN:$TOOLCHAIN:ro" ...
# so the image stays small and always matches the host's compiler.
ARG BASE_IMAGE=localhost/debian:bookworm-slim
FROM ${BASE_IMAGE}
# The packages the official swift:bookworm images install for the toolchain.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      binutils git libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev \
      libsqlite3-0 libstdc++-12-dev libxml2-dev libncurses-dev libz3-dev pkg-config tzdata \
      zlib1g-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ARG TOOLCHAIN=/opt/swift
ENV PATH=${TOOLCHAIN}/usr/bin:${PATH}
# Where github.com's packages are mirrored on the host (mounted read-only at build time too);
# empty when the machine reaches GitHub itself.
ARG GIT_MIRROR=
RUN if [ -n "${GIT_MIRROR}" ]; then \
      git config --system "url.${GIT_MIRROR}.insteadOf" https://github.com/ \
      && git config --system --add safe.directory '*'; \
    fi

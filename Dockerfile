# pinchtab: one image for the server, the bridges and the MCP endpoint.
#   docker build -t pinchtab:0.1.0 .
#   docker run --rm -p 9867:9867 -e PINCHTAB_TOKEN=... pinchtab:0.1.0            # a bridge
#   docker run --rm -p 9867:9867 -e PINCHTAB_TOKEN=... pinchtab:0.1.0 server --bind 0.0.0.0
# Debian slim with Debian's own chromium (the same browser the tests use), a non-root user.
FROM python:3.11-slim-bookworm

ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Unpinned on purpose: Debian's chromium gets security updates; rebuild the image to take them.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji ca-certificates \
 && rm -rf /var/lib/apt/lists/*

RUN groupadd --gid 10001 pinchtab \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/pinchtab --shell /usr/sbin/nologin pinchtab \
 && mkdir -p /data \
 && chown pinchtab:pinchtab /data

WORKDIR /opt/pinchtab
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install . && rm -rf /opt/pinchtab/src

USER 10001:10001
ENV HOME=/home/pinchtab \
    PINCHTAB_CHROME=/usr/lib/chromium/chromium \
    PINCHTAB_STATE_DIR=/data/state \
    PINCHTAB_PORT=9867
VOLUME ["/data"]
EXPOSE 9867

# /health is public (no token) on the bridge, the server and `pinchtab mcp --transport http`.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PINCHTAB_PORT', '9867'), timeout=2)"]

ENTRYPOINT ["pinchtab"]
# A bridge reachable from other containers: needs PINCHTAB_TOKEN (it refuses to start without one).
CMD ["bridge", "--bind", "0.0.0.0", "--profile-dir", "/data/profile"]

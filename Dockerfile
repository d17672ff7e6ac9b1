# pinchtab: one image for the server, the bridges and the MCP endpoint.
#   docker build -t pinchtab:0.1.0 .
#   docker run --rm -p 9867:9867 -e PINCHTAB_TOKEN=... pinchtab:0.1.0            # a bridge
#   docker run --rm -p 9867:9867 -e PINCHTAB_TOKEN=... pinchtab:0.1.0 server --bind 0.0.0.0
# Two stages: the wheel is built from the source, and the runtime installs that wheel alone (what
# `pip install pinchtab` gives a user; tests/e2e/test_wheel.py does the same install steps and
# serves a page with it). Debian slim with Debian's chromium-headless-shell: the image runs headless
# only, and the shell is the browser a headless pinchtab picks (half the CPU per tab: docs/install.md).

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip wheel --no-deps --wheel-dir /dist .

FROM python:3.11-slim-bookworm

ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Unpinned on purpose: Debian's chromium packages get security updates; rebuild the image to take them.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation fonts-noto-color-emoji ca-certificates \
 && rm -rf /var/lib/apt/lists/*

RUN groupadd --gid 10001 pinchtab \
 && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/pinchtab --shell /usr/sbin/nologin pinchtab \
 && mkdir -p /data \
 && chown pinchtab:pinchtab /data

# The wheel into its own venv: dependencies from the index, pinchtab from the build stage.
COPY --from=build /dist /tmp/dist
RUN python -m venv /opt/pinchtab \
 && /opt/pinchtab/bin/pip install /tmp/dist/pinchtab-*.whl \
 && rm -rf /tmp/dist

USER 10001:10001
ENV PATH=/opt/pinchtab/bin:$PATH \
    HOME=/home/pinchtab \
    PINCHTAB_CHROME=/usr/lib/chromium/chromium-headless-shell \
    PINCHTAB_STATE_DIR=/data/state \
    PINCHTAB_PORT=9867
VOLUME ["/data"]
EXPOSE 9867

# /health is public (no token) on the bridge, the server and `pinchtab mcp --transport http`, and
# answers 503 while the browser (the server's default instance) is down: urlopen raises on it.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PINCHTAB_PORT', '9867'), timeout=2)"]

ENTRYPOINT ["pinchtab"]
# A bridge reachable from other containers: needs PINCHTAB_TOKEN (it refuses to start without one).
CMD ["bridge", "--bind", "0.0.0.0", "--profile-dir", "/data/profile"]

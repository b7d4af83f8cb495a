# The image platform/compose.yaml runs: every process of the platform (web, worker, beat,
# migrate), told apart by its command. Build from the repository's root:
#   docker build -t spectacular-bid .

# The lock is compiled for Python 3.11 (requirements.lock's header).
FROM python:3.11-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
COPY requirements.lock /tmp/requirements.lock
# Every package pinned and checked against its hashes: the image holds what CI tested.
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --require-hashes -r /tmp/requirements.lock

FROM python:3.11-slim-bookworm
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    DEBUG=false
RUN groupadd --system --gid 10001 bid \
    && useradd --system --uid 10001 --gid bid --home-dir /app --no-create-home bid
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY . .
# Static files hashed and compressed into var/static at build (WhiteNoise serves them);
# the key only lets the settings load for this one command and is not kept.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput --verbosity 0 \
    && mkdir -p var && chown -R bid:bid var
USER 10001:10001
EXPOSE 8000
# The platform's own health (database, channel layer, clock keeper: pages/health.py).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "infra.healthcheck"]
CMD ["python", "-m", "infra.server", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", "config.asgi:application"]

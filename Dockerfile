# gpuops: one image for the policy service, the Slack bot and the worker.
#   docker build -t gpuops .
#   docker run gpuops                      # the service on :8000 (the default command)
#   docker run gpuops bot --host 0.0.0.0 --port 3000
#   docker run gpuops worker --host 0.0.0.0 --port 8002
#   docker run gpuops db upgrade
ARG PYTHON_IMAGE=python:3.11-slim

# ---- builder: wheels for gpuops and every dependency, installed into a virtualenv ----
FROM ${PYTHON_IMAGE} AS builder
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
# Only what the wheel is built from; tests, docs and deploy files stay out of the image.
COPY pyproject.toml README.md ./
COPY policy ./policy
COPY contract ./contract
COPY service ./service
COPY bot ./bot
COPY gpuops ./gpuops
# Bytecode is compiled here (pip's default) because the root filesystem is read-only at run time.
# The runtime needs neither the installer nor the build backend, so they leave the virtualenv.
RUN pip wheel --wheel-dir /wheels . \
 && python -m venv /opt/venv \
 && /opt/venv/bin/pip install --no-index --find-links /wheels gpuops \
 && /opt/venv/bin/pip uninstall --yes pip setuptools wheel

# ---- final: the virtualenv on a clean slim base, no compilers, no wheels, no pip caches ----
FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="gpuops" \
      org.opencontainers.image.description="Chat-ops bot and policy decision service for ML training compute on AWS"
# matplotlib (digest charts) needs a writable config dir and /tmp is the only writable path at run time.
# GPUOPS_HEALTH_URL is what HEALTHCHECK probes; compose sets it per process (bot :3000, worker :8002).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MPLCONFIGDIR=/tmp/matplotlib \
    HOME=/tmp \
    GPUOPS_HEALTH_URL=http://127.0.0.1:8000/healthz
RUN groupadd --system --gid 10001 gpuops \
 && useradd --system --uid 10001 --gid gpuops --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin gpuops
COPY --from=builder /opt/venv /opt/venv
# Numeric ids so Kubernetes can check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
WORKDIR /tmp
EXPOSE 8000 3000 8002
# curl is not in the slim image; the interpreter is.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(os.environ['GPUOPS_HEALTH_URL'], timeout=4)"]
ENTRYPOINT ["gpuops"]
CMD ["service", "--host", "0.0.0.0", "--port", "8000"]

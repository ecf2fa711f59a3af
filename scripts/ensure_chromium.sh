#!/usr/bin/env bash
# The inspector's browser tests need Debian's chromium and chromium-driver. Install them when
# they are missing and we are root (CI on a fresh machine); otherwise say what to run.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
if [ "${EUID}" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium or chromium-driver is missing: installing them with apt-get (for the inspector's browser test)"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
    chromium --version
    exit 0
fi
echo "chromium or chromium-driver is missing; the inspector's browser test needs them." >&2
echo "Install them as root: apt-get install -y chromium chromium-driver" >&2
exit 1

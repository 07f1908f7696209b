#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerate the build system from configure.ac and the Makefile.am fragments.
set -e
cd "$(dirname "$0")"
autoreconf -fi -W all,error

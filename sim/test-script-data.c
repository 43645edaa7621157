// SPDX-License-Identifier: GPL-2.0
#include "test-script.h"

_Thread_local struct script script;

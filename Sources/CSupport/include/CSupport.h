// Umbrella header for CSupport: every helper header, so the module sees each one.
// Add a line here when adding a header to include/.
#include "csupport_file.h"
#include "csupport_library.h"
#include "csupport_signals.h"
#include "csupport_socket.h"
#include "csupport_thread.h"
#include "csupport_tty.h"

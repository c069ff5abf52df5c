/* Callgrind's client request START_INSTRUMENTATION (valgrind's callgrind.h, BSD-licensed, shipped
 * by the valgrind package), as a Node-API addon of one function, start(): the counted process
 * (worker.js), run with --instr-atstart=no, switches callgrind's instrumentation on just before its
 * first mark, so the process start, loading the drivers and warming the process up run at
 * valgrind's uninstrumented speed. Outside valgrind the request is a few instructions that do
 * nothing. Built on demand by instrument.js, against the running Node's own headers. */
#include <node_api.h>
#include <valgrind/callgrind.h>

static napi_value start(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  CALLGRIND_START_INSTRUMENTATION;
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor fns[] = {
      {"start", NULL, start, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, 1, fns) != napi_ok) return NULL;
  return exports;
}

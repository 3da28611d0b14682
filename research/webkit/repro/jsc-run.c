// A JavaScriptCore shell for the wasm reproduction: evaluates a script in a fresh
// JavaScriptCore context (WebKitGTK's own libjavascriptcoregtk-4.1, through its GLib API),
// with the module's bytes as `wasmBytes` (an ArrayBuffer) and a count as `passes`, and prints
// what the script evaluates to. JSC_* options in the environment apply as in a browser.
// A script that works asynchronously defines `__tick()`, which runs one of its queued tasks:
// jsc-run calls it until it returns something other than "pending" (the microtasks a task
// queues run as each call returns). Nothing here runs GLib's main loop, so the script must
// compile its module synchronously.
//   gcc -O2 -o jsc-run jsc-run.c -l:libjavascriptcoregtk-4.1.so.0
//   ./jsc-run <module.wasm> <script.js> <passes>
// The library's headers are not installed here, so the few functions used are declared below
// (their signatures are the GLib API's, JavaScriptCore GTK 2.38 and later).
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct _JSCContext JSCContext;
typedef struct _JSCValue JSCValue;
typedef struct _JSCException JSCException;
JSCContext *jsc_context_new(void);
JSCValue *jsc_context_evaluate(JSCContext *, const char *, long);
JSCException *jsc_context_get_exception(JSCContext *);
char *jsc_exception_report(JSCException *);
char *jsc_value_to_string(JSCValue *);
JSCValue *jsc_value_new_array_buffer(JSCContext *, void *, size_t, void (*)(void *), void *);
JSCValue *jsc_value_new_number(JSCContext *, double);
void jsc_context_set_value(JSCContext *, const char *, JSCValue *);

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *bytes = malloc(n + 1);
  if (fread(bytes, 1, n, f) != (size_t)n) {
    perror(path);
    exit(2);
  }
  bytes[n] = 0;
  fclose(f);
  *size = n;
  return bytes;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s <module.wasm> <script.js> <passes>\n", argv[0]);
    return 2;
  }
  size_t wasm_size, script_size;
  char *wasm = slurp(argv[1], &wasm_size);
  char *script = slurp(argv[2], &script_size);
  JSCContext *context = jsc_context_new();
  jsc_context_set_value(context, "wasmBytes",
                        jsc_value_new_array_buffer(context, wasm, wasm_size, free, wasm));
  jsc_context_set_value(context, "passes", jsc_value_new_number(context, atof(argv[3])));
  JSCValue *result = jsc_context_evaluate(context, script, (long)script_size);
  JSCException *exception = jsc_context_get_exception(context);
  if (exception) {
    printf("exception: %s\n", jsc_exception_report(exception));
    return 1;
  }
  char *text = jsc_value_to_string(jsc_context_evaluate(context, "typeof __tick", -1));
  int ticking = strcmp(text, "function") == 0;
  if (!ticking) text = jsc_value_to_string(result);
  while (ticking) {
    text = jsc_value_to_string(jsc_context_evaluate(context, "__tick()", -1));
    if ((exception = jsc_context_get_exception(context))) {
      printf("exception: %s\n", jsc_exception_report(exception));
      return 1;
    }
    ticking = strcmp(text, "pending") == 0;
  }
  printf("%s\n", text);
  return text[0] == 'o' && text[1] == 'k' ? 0 : 1;
}

// Preloaded into a service process (`node --import`) by traces.test.ts: appends the URL of every module the process
// resolves, through `import` and `require` alike, to a file of its own in RECORD_LOADED_MODULES_DIR (tsx's command
// runs the service in a child process, which gets its own list), so the test can tell which packages it loaded.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';

const list = path.join(process.env.RECORD_LOADED_MODULES_DIR, `modules-${process.pid}.txt`);
const loaded = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (!loaded.has(resolved.url)) {
      loaded.add(resolved.url);
      appendFileSync(list, `${resolved.url}\n`);
    }
    return resolved;
  },
});

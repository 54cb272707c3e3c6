// Writes javascript.txt: the member names of JavaScript's built-in values
// (their prototypes and constructors), of the globals an ES2022 runtime and
// Node give, and of Node's commonly required modules.
//     node javascript.js > javascript.txt
const names = new Set();
const add = (o) => {
  for (let x = o; x && x !== Object.prototype; x = Object.getPrototypeOf(x)) {
    for (const n of Object.getOwnPropertyNames(x)) names.add(n);
  }
  for (const n of Object.getOwnPropertyNames(Object.prototype)) names.add(n);
};
const builtins = [Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Date, RegExp, Error, TypeError,
  RangeError, SyntaxError, Map, Set, WeakMap, WeakSet, WeakRef, Promise, ArrayBuffer, SharedArrayBuffer, DataView,
  Int8Array, Uint8Array, Float64Array, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController, Buffer];
for (const c of builtins) {
  add(c);
  if (c.prototype) add(c.prototype);
}
for (const o of [Math, JSON, Reflect, Atomics, Intl, console, globalThis, process, (function* () {})(),
  (async function* () {})(), [][Symbol.iterator](), new Map().entries()]) add(o);
for (const m of ["fs", "path", "events", "stream", "util", "os", "child_process", "crypto", "http", "url", "assert",
  "readline", "zlib", "net", "vm", "worker_threads", "module"]) {
  const mod = require(m);
  add(mod);
  for (const v of Object.values(mod)) {
    if (typeof v === "function" && v.prototype) add(v.prototype);
  }
}
add(new (require("events"))());
add(new (require("stream").Readable)());
add(new (require("stream").Writable)());
console.log([...names].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n)).sort().join("\n"));

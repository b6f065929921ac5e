/**
 * JavaScript's built-in functions kept as Node has them while a library loads that replaces them.
 *
 * pdf.js's legacy build, the one made for Node, carries core-js, which as it loads replaces every
 * built-in it finds short of the newest standard with its own JavaScript. On Node 20 that is
 * `Array.prototype.push` (for lengths past 2³²), `JSON.stringify` and `JSON.parse` (for
 * `JSON.rawJSON` and the source text of parsed values) and `Function.prototype.toString`. The
 * thread that had read one document with pdf.js (a worker, after PDFium failed on a document)
 * then ran every `push` of the engine and the stages, and every `JSON.stringify` it made,
 * through those replacements for the rest of its life: over the first 150 files of the wild
 * corpus, the worker of `parse` spent 0.8 s in core-js's `push` alone (and 0.2 s more setting
 * the lengths it sets); `extract --jobs 1` over the whole wild corpus took a tenth more CPU than
 * with Node's own (bench/README.md). The functions core-js adds (Node 20 has
 * no `Promise.withResolvers`, `Set.prototype.union`, `Uint8Array.prototype.toHex`, …) are what
 * pdf.js needs: they stay; only what existed before is put back.
 */

/** The objects whose functions a polyfill replaces: the constructors of the language and their prototypes. */
const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array) as object;
const INTRINSICS: readonly object[] = [
  Object, Object.prototype, Function.prototype, Array, Array.prototype, String, String.prototype, Number, Number.prototype,
  Boolean.prototype, Symbol, Symbol.prototype, BigInt, BigInt.prototype, Math, JSON, Reflect, Date, Date.prototype,
  RegExp, RegExp.prototype, Error, Error.prototype, Promise, Promise.prototype, Map, Map.prototype, Set, Set.prototype,
  WeakMap.prototype, WeakSet.prototype, ArrayBuffer, ArrayBuffer.prototype, DataView.prototype, TYPED_ARRAY,
  (TYPED_ARRAY as { prototype: object }).prototype, Uint8Array, Uint8Array.prototype,
];

type Saved = [object, PropertyKey, PropertyDescriptor][];

function snapshot(): Saved {
  const saved: Saved = [];
  for (const object of INTRINSICS) {
    for (const key of Reflect.ownKeys(object)) saved.push([object, key, Object.getOwnPropertyDescriptor(object, key)!]);
  }
  return saved;
}

/** Puts back each property whose function or value was replaced (one that cannot be redefined stays as it is). */
function restore(saved: Saved): void {
  for (const [object, key, before] of saved) {
    const now = Object.getOwnPropertyDescriptor(object, key);
    if (now && now.value === before.value && now.get === before.get && now.set === before.set) continue;
    // NaN is the one value unequal to itself (Number.NaN): not a replacement.
    if (now && Number.isNaN(now.value) && Number.isNaN(before.value)) continue;
    try {
      Object.defineProperty(object, key, before);
    } catch {
      // Made non-configurable by the library: left to it.
    }
  }
}

/** Runs `load` (an import) and puts back the built-in functions it replaced; what it added stays. */
export async function keepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const saved = snapshot();
  try {
    return await load();
  } finally {
    restore(saved);
  }
}

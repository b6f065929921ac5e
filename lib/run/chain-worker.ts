/**
 * The parse worker with the stages after parse in it (lib/run/chain.ts), the worker `extract`
 * runs: it holds the stages under their module's URL, where the parse worker looks for them
 * (`importChain`), so that a worker bundled from this module (lib/run/worker-start.ts) takes
 * them from its own file rather than importing them again from theirs.
 */
import * as chain from './chain.js';
import { CHAIN_URL, preloadedModules } from './worker-start.js';

preloadedModules.set(CHAIN_URL, chain);
// Imported only now, after the line above: the parse worker asks for the stages as it starts.
// Not awaited: the bundle made of this module is a script (lib/run/worker-script.ts), which has
// no top-level await; the worker's messages wait in its port until the parse worker listens.
void import('./parse-worker.js');

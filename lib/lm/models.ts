/** The language models of lib/lm, by the names they had when they were one module. */

// Re-exported for importers not yet pointed at the new modules.
export { ArpaModel, estimateArpa } from './arpa.js';
export { findKenlm, KenlmQuery, parseQueryLine, type KenlmOptions } from './kenlm.js';
export { ModelError, type LanguageModel, type SentenceScore } from './model.js';
export { openModel } from './open.js';
export { CharModel, UnigramModel } from './unigram.js';
export { wordsOf } from './words.js';

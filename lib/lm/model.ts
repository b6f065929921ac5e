/**
 * Language models for re-segmentation, behind one interface.
 *
 * - `UnigramModel` (unigram.ts): word counts built on the fly from a document (and optional word lists); the
 *   default, synchronous, used by the dynamic-programming search itself.
 * - `ArpaModel` (arpa.ts): an n-gram model in the ARPA text format (what KenLM's `lmplz` and most toolkits
 *   write), read in-process; backoff scoring.
 * - `KenlmQuery` (kenlm.ts): KenLM's `query` program as one long-lived child process speaking its line protocol
 *   (one sentence in, one `Total: … OOV: …` line out), for binary or large models.
 *
 * The n-gram models score whole sentences (log10 probability, `<s>`/`</s>` added); the search uses
 * them to choose between a line as it was and as re-segmented. `estimateArpa` builds a small ARPA
 * model from text in-process (absolute discounting with backoff) for when `lmplz` is not installed.
 * `openModel` (open.ts) opens a model file as the one or the other.
 */

/** A sentence's score: log10 P(sentence) (higher is better) and how many of its words the model does not know. */
export interface SentenceScore {
  total: number;
  oov: number;
}

/** A sentence-level language model. */
export interface LanguageModel {
  readonly name: string;
  /** The score of each sentence, a sentence being its words in order. */
  score(sentences: readonly (readonly string[])[]): Promise<SentenceScore[]>;
  /** Releases the model (ends a child process). */
  close(): Promise<void>;
}

/** A malformed model file: the message says where. */
export class ModelError extends Error {
  override name = 'ModelError';
}

/** The error an engine throws for a document it cannot read; `code` becomes the error record's code. */
import type { ErrorCode } from '../protocol/records.js';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

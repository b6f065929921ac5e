/**
 * Shared fixtures of the resegment tests: running text for the document model, and lines of one block.
 */
import type { Line } from '../../../lib/protocol/records.js';
import { line } from '../../helpers.js';

/** Ordinary running text for the document model (not from any ground-truth text). */
export const STORY = [
  'The gardeners of the old town met in the square on the first morning of spring.',
  'They talked about the weather and about the seeds that they wanted to sow in the beds.',
  'One of them had brought a basket of young plants to share with the others in the town.',
  'The plants were small but strong, and the gardeners carried them home in the morning sun.',
  'In the evening they watered the beds and covered the young plants against the cold.',
  'By the end of the month the first leaves had opened and the square was green again.',
  'The children of the town came to look at the flowers and to ask about the names of the plants.',
  'The gardeners told them that patience was the most important tool in any garden.',
];

/** Lines of one block, 14 pt apart. */
export const lines = (texts: readonly string[], block = 0): Line[] => texts.map((text, i) => line(text, 100 + 14 * i, { block }));

/**
 * Chinese and Japanese: ideographs written as their radicals' compatibility characters. Some
 * producers build a font's ToUnicode by reading its cmap backwards, and where one glyph serves both
 * a Kangxi radical (U+2F00–2FD5) or a CJK Radicals Supplement character (U+2E80–2EF3) and the
 * unified ideograph, they may pick the radical: "⼈" for 人, "⻓" for 长. In running Chinese or
 * Japanese the ideograph is meant; a radical is written as such only in lists of radicals, which
 * stand without ideographs around them.
 */
import type { Rewriter } from '../repair/rewrite.js';

/**
 * The CJK Radicals Supplement characters and the unified ideographs they have the shape of (as
 * Unicode's EquivalentUnifiedIdeograph lists them; the Kangxi radicals have them as their NFKC
 * decomposition). Radicals with no ideograph of their own in the BMP's unified block are left out.
 */
const SUPPLEMENT: Readonly<Record<string, string>> = {
  '⺃': '乚', '⺅': '亻', '⺆': '冂', '⺉': '刂', '⺊': '卜', '⺋': '㔾', '⺌': '小', '⺎': '兀', '⺏': '尣', '⺐': '尢',
  '⺒': '巳', '⺓': '幺', '⺔': '彑', '⺖': '忄', '⺗': '㣺', '⺘': '扌', '⺙': '攵', '⺛': '旡', '⺝': '月', '⺞': '歺',
  '⺟': '母', '⺠': '民', '⺡': '氵', '⺢': '氺', '⺣': '灬', '⺤': '爫', '⺦': '丬', '⺨': '犭', '⺩': '王', '⺪': '疋',
  '⺫': '罒', '⺬': '示', '⺭': '礻', '⺯': '糹', '⺰': '纟', '⺱': '罓', '⺲': '罒', '⺳': '㓁', '⺹': '耂', '⺺': '肀',
  '⺻': '聿', '⺼': '月', '⺽': '臼', '⺾': '艹', '⻀': '艹', '⻁': '虎', '⻂': '衤', '⻃': '覀', '⻄': '西', '⻅': '见',
  '⻆': '角', '⻈': '讠', '⻉': '贝', '⻋': '车', '⻌': '辶', '⻍': '辶', '⻎': '辶', '⻏': '阝', '⻐': '钅', '⻑': '長',
  '⻒': '镸', '⻓': '长', '⻔': '门', '⻖': '阝', '⻗': '雨', '⻘': '青', '⻙': '韦', '⻚': '页', '⻛': '风', '⻜': '飞',
  '⻝': '食', '⻟': '飠', '⻠': '饣', '⻢': '马', '⻣': '骨', '⻤': '鬼', '⻥': '鱼', '⻦': '鸟', '⻧': '卤', '⻨': '麦',
  '⻩': '黄', '⻪': '黾', '⻫': '斉', '⻬': '齐', '⻭': '歯', '⻮': '齿', '⻯': '竜', '⻰': '龙', '⻱': '龜', '⻲': '亀',
  '⻳': '龟',
};

/** A radical character of either block. */
const RADICAL = /[\u2e80-\u2ef3\u2f00-\u2fd5]/gu;
/** Unified ideographs and kana: the running text around which a radical stands for its ideograph. */
const CJK_TEXT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

/** The unified ideograph a radical character has the shape of, or null. */
export function ideographOfRadical(radical: string): string | null {
  const code = radical.codePointAt(0) ?? 0;
  if (code >= 0x2f00 && code <= 0x2fd5) return radical.normalize('NFKC');
  return SUPPLEMENT[radical] ?? null;
}

/**
 * `cjk-radical`: in a line that holds Chinese or Japanese text (unified ideographs or kana), each
 * radical character becomes the ideograph it has the shape of. A line of radicals alone is kept.
 */
export function radicalsToIdeographs(line: Rewriter): void {
  if (!/[\u2e80-\u2fd5]/u.test(line.text) || !CJK_TEXT.test(line.text)) return;
  line.replace(RADICAL, (m) => ideographOfRadical(m[0]) ?? m[0], 'cjk-radical');
}

/** One sentence in English, German and Arabic, for the language tests. */
export const english = 'The fishing boats came back to the harbour before sunrise, and the market opened while the gulls were still circling.';
export const german = 'Die Fischerboote kamen vor Sonnenaufgang in den Hafen zurück, und der Markt öffnete, während die Möwen noch kreisten.';
export const arabic = 'عادت قوارب الصيد إلى الميناء قبل شروق الشمس، وافتتح السوق بينما كانت النوارس تحلق فوق الماء.';

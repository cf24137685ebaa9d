/** `text` as a regular expression that matches it literally (every metacharacter escaped). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Text ended as a sentence: "Service Unavailable" → "Service Unavailable."; one that already ends (. ! ? or an
 * ellipsis, as a menu item's name "Enrol from CSV…" does) is left as it is, and a full stop after an ellipsis
 * ("…." reads as a typo) is dropped.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/(…|\.\.\.)\.$/, '$1');
  return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

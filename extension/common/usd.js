// Amounts of money for people, shared by the side panel and settings.

// usd writes an amount as the background does (wasm/cost USD): cents from
// a dollar up, a tenth of a cent more below (unless whole cents), five
// decimals below a cent, so small calls do not all read $0.00.
export function usd(v) {
  const n = Number(v) || 0;
  if (n === 0) return "$0";
  if (n >= 1) return `$${n.toFixed(2)}`;
  if (n >= 0.01) return `$${n.toFixed(3).replace(/0$/, "")}`;
  return `$${n.toFixed(5)}`;
}

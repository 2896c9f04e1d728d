/**
 * What reading a whole item collection with Query costs, from its size by DynamoDB's item-size
 * rules (rule B.2, docs/dynamodb-rules.md): a Query adds the sizes of the items it reads and rounds the
 * total up to 4 KB once per page; one strongly consistent 4 KB is 1 RCU, eventually consistent
 * half that, and a Query costs at least 1 (strong) / 0.5 (eventual). A page holds at most 1 MB
 * (rule B.4), so a collection over 1 MB is read in several pages, each rounded on its own.
 *
 * This is the figure the collection boxes head themselves with; the estimator in Rust
 * (commands.estimateQuery) remains the authority for a given Query.
 */
const BLOCK = 4096;
const PAGE = 1024 * 1024;

export type WholeReadCost = { eventual: number; strong: number };

export function wholeCollectionReadCost(sizeBytes: number): WholeReadCost {
  const bytes = Math.max(0, Math.ceil(sizeBytes));
  const fullPages = Math.floor(bytes / PAGE);
  const rest = bytes - fullPages * PAGE;
  const blocks = fullPages * (PAGE / BLOCK) + Math.ceil(rest / BLOCK);
  const strong = Math.max(1, blocks);
  return { strong, eventual: strong / 2 };
}

/**
 * The words for the embedded engine's simulations (issue 18.7), the same wherever they are shown:
 * what each switch does, in one sentence a user can act on. The rules are DynamoDB's (B.19
 * throttling, B.20 read consistency in docs/dynamodb-rules.md); the engine applies them, the UI
 * only says what they are.
 */

/** Why the switches exist, and what they apply to. */
export const SIMULATIONS_INTRO =
  "DynamoDB throttles and serves eventually consistent reads; a local engine normally does neither. These switches make DynoTable's embedded engine do both, for every table on it, so retry, back-off and read-after-write code can be tried on a laptop. They are off by default and kept across launches.";

/** What "enforce capacity" does (rule B.19). */
export const ENFORCE_CAPACITY_HELP =
  "Each provisioned table and index gets its read and write units per second, with up to 300 s of unused capacity banked as burst, and every partition key at most 3,000 RCU and 1,000 WCU a second (on-demand tables too). A request over them fails with ProvisionedThroughputExceededException, as DynamoDB's would; batches return the throttled requests unprocessed.";

/** What the eventual-consistency lag does (rule B.20). */
export const EVENTUAL_LAG_HELP =
  "Eventually consistent reads (GetItem, BatchGetItem and Query without ConsistentRead, and every GSI Query) may see writes up to this many milliseconds late; strongly consistent reads stay exact. The seed makes the same reads lag the same way on every run. Empty: every read sees the latest write.";

/** The counts' scope. */
export const COUNTS_HELP = "Counted by the embedded engine since DynoTable started; switching a simulation off keeps them.";

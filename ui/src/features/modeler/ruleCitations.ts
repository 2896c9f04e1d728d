/**
 * The modeler's backend explains itself with citations of the project's rule book ("(rule B.7:
 * key values are never empty)", "(rule B.2)"): useful in its code, meaningless to a user, who has
 * no rule B.7. What is shown keeps the plain words of a citation and drops its number.
 */
import type { ModelAnalysis } from "../../ipc/bindings.gen";

const RULE = String.raw`B\.\d+(?:\.\d+)*`;
/** "(rule B.7)", "(rules B.1, B.2, B.4)", "(rule B.7: the ten types)", "(rule B.5's operators)", "(rule B.6, docs/…)". */
const CITATION = new RegExp(String.raw`\s*\(rules?\s+${RULE}(?:\s*,\s*${RULE})*([^)]*)\)`, "g");
/** A number left in the running text: "as rule B.7 says". */
const BARE = new RegExp(String.raw`\brules?\s+${RULE}(?:\s*,\s*${RULE})*`, "g");

/** `text` without rule numbers: a citation's own words stay ("(key values are never empty)"). */
export function withoutRuleCitations(text: string): string {
  return text
    .replace(CITATION, (_, rest: string) => {
      const said = rest.trim();
      if (said.startsWith(":")) return ` (${said.slice(1).trim()})`;
      if (said.startsWith("'s ")) return ` (DynamoDB's ${said.slice(3).trim()})`;
      // A reference ("…, docs/dynamodb-rules.md", "… for LSI fetches") says nothing more to a user.
      return "";
    })
    .replace(BARE, (cited: string) => (cited.startsWith("rules") ? "DynamoDB's rules" : "DynamoDB's rule"))
    .replace(/ +([,.:;])/g, "$1");
}

/** An analysis as the user reads it: its problem and notes in plain words. */
export function plainAnalysis(analysis: ModelAnalysis): ModelAnalysis {
  return {
    ...analysis,
    problem: analysis.problem === null ? null : { ...analysis.problem, message: withoutRuleCitations(analysis.problem.message) },
    patterns: analysis.patterns.map((p) => ({ ...p, notes: p.notes.map(withoutRuleCitations) })),
    partitions: analysis.partitions.map((p) => ({ ...p, notes: p.notes.map(withoutRuleCitations) })),
  };
}

/**
 * Which part of the form shows the backend's problem: the table, entity or pattern it names
 * (`ProblemAt`), at the member it blames when that member has a place in the form, else at the
 * top of that part; a problem that names no part shows at the top of the form.
 */
import type { Model, ModelPart, ModelProblem } from "../../../ipc/bindings.gen";

/** The problem when it concerns `part` `name`, else null. */
export function problemOf(problem: ModelProblem | null, part: ModelPart, name: string): ModelProblem | null {
  return problem !== null && problem.at?.part === part && problem.at.name === name ? problem : null;
}

/** The problem (already the part's) when it blames `member`. */
export const atMember = (problem: ModelProblem | null, member: string): ModelProblem | null => (problem?.at?.member === member ? problem : null);

/** The problem (already the part's) when it blames none of the `shown` members: the part's top shows it. */
export const atTop = (problem: ModelProblem | null, shown: readonly string[]): ModelProblem | null =>
  problem !== null && !shown.includes(problem.at?.member ?? "") ? problem : null;

/** The problem when no part of the form (of this model) is there to show it. */
export function unplaced(problem: ModelProblem | null, model: Model): ModelProblem | null {
  if (problem === null) return null;
  const at = problem.at;
  if (at === null) return problem;
  const names =
    at.part === "table" ? model.tables.map((t) => t.name) : at.part === "entity" ? (model.entities ?? []).map((e) => e.name) : (model.patterns ?? []).map((p) => p.name);
  return names.includes(at.name) ? null : problem;
}

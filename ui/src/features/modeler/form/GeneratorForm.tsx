/**
 * How a field's sample values are made: the generator's kind and its settings (counts come from
 * the entity; distributions are a choice's weights; skew is a reference's hot values).
 */
import type { Entity, Generator } from "../../../ipc/bindings.gen";
import { CheckField, ListField, NumberField, SelectField, TextField } from "./FormControls";

type Kind = Generator["kind"];

const KINDS: readonly { value: Kind; label: string }[] = [
  { value: "sequence", label: "sequence (prefix + counter)" },
  { value: "choice", label: "choice (weighted values)" },
  { value: "number", label: "number (min–max)" },
  { value: "time", label: "time (ISO-8601 instants)" },
  { value: "text", label: "text (random)" },
  { value: "flag", label: "flag (true/false)" },
  { value: "constant", label: "constant" },
  { value: "ref", label: "reference (another entity's field)" },
  { value: "lookup", label: "lookup (by a shared field)" },
];

/** A generator of `kind` with settings that make values at once. */
export function defaultGenerator(kind: Kind, entities: readonly Entity[]): Generator {
  const other = entities[0];
  const otherField = other?.fields?.[0]?.name ?? "";
  switch (kind) {
    case "sequence":
      return { kind, prefix: "", start: 1, step: 1, width: 0 };
    case "choice":
      return { kind, values: ["a", "b"], weights: [] };
    case "number":
      return { kind, min: 0, max: 100, decimals: 0 };
    case "time":
      return { kind, start: 1741939200, stepSeconds: 60, jitterSeconds: 0, per: null };
    case "text":
      return { kind, length: 8 };
    case "flag":
      return { kind, share: 0.5 };
    case "constant":
      return { kind, value: "" };
    case "ref":
      return { kind, entity: other?.name ?? "", field: otherField, skew: null };
    case "lookup":
      return { kind, entity: other?.name ?? "", by: otherField, field: otherField };
  }
}

const iso = (seconds: number) => {
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace(".000Z", "Z");
};

export function GeneratorForm({
  generator,
  onChange,
  entity,
  entities,
  testId,
}: {
  generator: Generator;
  onChange: (g: Generator) => void;
  /** The entity the field belongs to (a time's `per` names one of its fields). */
  entity: Entity;
  /** The model's entities (a reference or lookup names one of the others). */
  entities: readonly Entity[];
  testId: string;
}) {
  const g = generator;
  const others = entities.filter((e) => e.name !== entity.name);
  const fieldsOf = (name: string) => (entities.find((e) => e.name === name)?.fields ?? []).map((f) => f.name);
  const own = (entity.fields ?? []).map((f) => f.name);
  const settings = (() => {
    switch (g.kind) {
      case "sequence":
        return (
          <>
            <TextField label="Prefix" value={g.prefix ?? ""} onChange={(prefix) => onChange({ ...g, prefix })} testId={`${testId}-prefix`} />
            <NumberField label="Start" min={0} value={g.start ?? 0} onChange={(v) => onChange({ ...g, start: v ?? 0 })} testId={`${testId}-start`} />
            <NumberField label="Step" min={0} value={g.step ?? 1} onChange={(v) => onChange({ ...g, step: v ?? 1 })} testId={`${testId}-step`} />
            <NumberField label="Width" min={0} value={g.width ?? 0} onChange={(v) => onChange({ ...g, width: v ?? 0 })} testId={`${testId}-width`} />
          </>
        );
      case "choice":
        return (
          <>
            <ListField label="Values" value={g.values} onChange={(values) => onChange({ ...g, values })} testId={`${testId}-values`} />
            <ListField
              label="Weights (empty: even)"
              value={(g.weights ?? []).map(String)}
              onChange={(ws) => onChange({ ...g, weights: ws.map(Number).filter((n) => Number.isFinite(n)) })}
              testId={`${testId}-weights`}
            />
          </>
        );
      case "number":
        return (
          <>
            <NumberField label="Min" value={g.min} onChange={(v) => onChange({ ...g, min: v ?? 0 })} testId={`${testId}-min`} />
            <NumberField label="Max" value={g.max} onChange={(v) => onChange({ ...g, max: v ?? 0 })} testId={`${testId}-max`} />
            <NumberField label="Decimals" min={0} value={g.decimals ?? 0} onChange={(v) => onChange({ ...g, decimals: v ?? 0 })} testId={`${testId}-decimals`} />
          </>
        );
      case "time":
        return (
          <>
            <NumberField label="Start (epoch seconds)" value={g.start} onChange={(v) => onChange({ ...g, start: v ?? 0 })} testId={`${testId}-start`} />
            <span className="muted mf-hint">{iso(g.start)}</span>
            <NumberField label="Step (s)" value={g.stepSeconds} onChange={(v) => onChange({ ...g, stepSeconds: v ?? 0 })} testId={`${testId}-step`} />
            <NumberField label="Jitter (s)" min={0} value={g.jitterSeconds ?? 0} onChange={(v) => onChange({ ...g, jitterSeconds: v ?? 0 })} testId={`${testId}-jitter`} />
            <SelectField
              label="Counted per"
              value={g.per ?? ""}
              options={[{ value: "", label: "(the whole entity)" }, ...own.map((f) => ({ value: f, label: f }))]}
              onChange={(per) => onChange({ ...g, per: per === "" ? null : per })}
              testId={`${testId}-per`}
            />
          </>
        );
      case "text":
        return <NumberField label="Length" min={0} value={g.length} onChange={(v) => onChange({ ...g, length: v ?? 0 })} testId={`${testId}-length`} />;
      case "flag":
        return <NumberField label="Share true" min={0} max={1} step={0.1} value={g.share} onChange={(v) => onChange({ ...g, share: v ?? 0 })} testId={`${testId}-share`} />;
      case "constant":
        return <TextField label="Value" value={g.value} onChange={(value) => onChange({ ...g, value })} testId={`${testId}-value`} />;
      case "ref":
        return (
          <>
            <SelectField label="Entity" value={g.entity} options={others.map((e) => e.name)} onChange={(e) => onChange({ ...g, entity: e, field: fieldsOf(e)[0] ?? "" })} testId={`${testId}-entity`} />
            <SelectField label="Its field" value={g.field} options={fieldsOf(g.entity)} onChange={(field) => onChange({ ...g, field })} testId={`${testId}-field`} />
            <CheckField label="Skew" checked={g.skew != null} onChange={(on) => onChange({ ...g, skew: on ? { hot: 1, factor: 10 } : null })} testId={`${testId}-skew`} />
            {g.skew != null && (
              <>
                <NumberField label="Hot values" min={0} value={g.skew.hot} onChange={(v) => g.skew && onChange({ ...g, skew: { ...g.skew, hot: v ?? 0 } })} testId={`${testId}-hot`} />
                <NumberField label="× as often" min={0} value={g.skew.factor} onChange={(v) => g.skew && onChange({ ...g, skew: { ...g.skew, factor: v ?? 1 } })} testId={`${testId}-factor`} />
              </>
            )}
          </>
        );
      case "lookup":
        return (
          <>
            <SelectField label="Entity" value={g.entity} options={others.map((e) => e.name)} onChange={(e) => onChange({ ...g, entity: e })} testId={`${testId}-entity`} />
            <SelectField label="Matched by" value={g.by} options={own.filter((f) => fieldsOf(g.entity).includes(f))} onChange={(by) => onChange({ ...g, by })} testId={`${testId}-by`} />
            <SelectField label="Its field" value={g.field} options={fieldsOf(g.entity)} onChange={(field) => onChange({ ...g, field })} testId={`${testId}-field`} />
          </>
        );
    }
  })();
  return (
    <>
      <SelectField label="Generator" value={g.kind} options={KINDS} onChange={(kind) => onChange(defaultGenerator(kind, others))} testId={`${testId}-kind`} />
      {settings}
    </>
  );
}

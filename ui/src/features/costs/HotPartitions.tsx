/**
 * Hot partitions: a request rate spread over the table's partition keys (by the collection
 * statistics, or evenly over N keys), each key's expected RCU and WCU set against the
 * per-partition ceilings of 3,000 RCU and 1,000 WCU, the keys that would throttle flagged. The
 * spreading is done in Rust (`hot_partitions`, rule B.11).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { HotPartitionReport, KeyLoad } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatCount, formatCountOf } from "../../shared/format";
import { Explanation, unitsText } from "./Explanation";
import { useHotPartitions, type SpreadKind } from "./useHotPartitions";
import "./HotPartitions.css";

/** A read rate set from outside (a new `n` each time), the section then brought into view. */
export type HotLoad = { readsPerSecond: number; n: number };

export type HotPartitionsProps = {
  profileId: string;
  table: string;
  readUnitsPerRequest?: number;
  writeUnitsPerRequest?: number;
  load?: HotLoad | null;
};

function Rate({ label, value, onChange }: { label: string; value: number; onChange: (v: number) => void }) {
  const id = useId();
  return (
    <div className="hot-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        step="any"
        defaultValue={value}
        onChange={(e) => {
          const next = Number(e.target.value);
          if (e.target.value.trim() !== "" && Number.isFinite(next)) onChange(next);
        }}
      />
    </div>
  );
}

export function HotPartitions({ profileId, table, readUnitsPerRequest = 0.5, writeUnitsPerRequest = 1, load = null }: HotPartitionsProps) {
  const [reads, setReads] = useState(load?.readsPerSecond ?? 1000);
  const [readUnits, setReadUnits] = useState(readUnitsPerRequest);
  const [writes, setWrites] = useState(100);
  const [writeUnits, setWriteUnits] = useState(writeUnitsPerRequest);
  const [spreadKind, setSpreadKind] = useState<SpreadKind>("byItemCount");
  const [uniformKeys, setUniformKeys] = useState(50);

  useEffect(() => setReadUnits(readUnitsPerRequest), [readUnitsPerRequest]);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (load === null) return;
    setReads(load.readsPerSecond);
    section.current?.scrollIntoView({ block: "start" });
  }, [load?.n]);
  useEffect(() => setWriteUnits(writeUnitsPerRequest), [writeUnitsPerRequest]);

  const report = useHotPartitions(profileId, table, { reads, readUnits, writes, writeUnits, spreadKind, uniformKeys });

  const spreadId = useId();
  return (
    <section className="hot-partitions" aria-label="Hot partitions" ref={section}>
      <h3>Hot partitions</h3>
      <div className="hot-inputs">
        {/* (A rate set from outside draws its input again with the new value.) */}
        <Rate key={`reads-${load?.n ?? 0}`} label="Reads per second" value={load?.readsPerSecond ?? reads} onChange={setReads} />
        <Rate label="RCU per read" value={readUnits} onChange={setReadUnits} />
        <Rate label="Writes per second" value={writes} onChange={setWrites} />
        <Rate label="WCU per write" value={writeUnits} onChange={setWriteUnits} />
        <div className="hot-field hot-field-wide">
          <label htmlFor={spreadId}>Spread over the keys</label>
          <select id={spreadId} value={spreadKind} onChange={(e) => setSpreadKind(e.target.value as SpreadKind)}>
            <option value="byItemCount">As the items are (statistics)</option>
            <option value="byBytes">As the bytes are (statistics)</option>
            <option value="uniform">Evenly over N keys</option>
          </select>
        </div>
        {spreadKind === "uniform" && <Rate label="N keys" value={uniformKeys} onChange={(v) => setUniformKeys(Math.max(1, Math.round(v)))} />}
      </div>
      {report?.status === "loading" && (
        <p className="muted" role="status">
          Spreading the load…
        </p>
      )}
      {report?.status === "error" && (
        <p className="field-error" role="alert">
          {errorTitle(report.error)}: {report.error.message}
        </p>
      )}
      {report?.status === "ok" && <Report report={report.data} />}
    </section>
  );
}

function Meter({ value, ceiling, label }: { value: number; ceiling: number; label: string }) {
  const ratio = ceiling > 0 ? value / ceiling : 0;
  const level = ratio > 1 ? "over" : ratio >= 0.8 ? "warm" : "ok";
  return (
    <span className={`hot-meter hot-${level}`}>
      <meter min={0} max={ceiling} low={ceiling * 0.8} high={ceiling} optimum={0} value={Math.min(value, ceiling)} aria-label={label} />
      <span>
        {unitsText(Math.round(value * 100) / 100)} / {formatCount(ceiling)}
      </span>
    </span>
  );
}

function Report({ report }: { report: HotPartitionReport }) {
  return (
    <div>
      <p className={report.throttlingKeys > 0 ? "hot-summary hot-over" : "hot-summary"} role="status">
        {report.throttlingKeys > 0
          ? `${formatCountOf(report.throttlingKeys, "key")} would throttle.`
          : "No key goes past a partition's ceiling."}{" "}
        <span className="muted">
          Table: {unitsText(report.tableReadUnits)} RCU, {unitsText(report.tableWriteUnits)} WCU a second.
        </span>
      </p>
      <table className="estimate-table hot-table">
        <thead>
          <tr>
            <th scope="col">Partition key</th>
            <th scope="col">Share</th>
            <th scope="col">RCU vs {formatCount(report.partitionReadUnits)}</th>
            <th scope="col">WCU vs {formatCount(report.partitionWriteUnits)}</th>
            <th scope="col">Flag</th>
          </tr>
        </thead>
        <tbody>
          {report.keys.map((key, i) => (
            <KeyRow key={i} load={key} report={report} />
          ))}
        </tbody>
      </table>
      <Explanation lines={report.lines} label="How the load is spread" />
    </div>
  );
}

function KeyRow({ load, report }: { load: KeyLoad; report: HotPartitionReport }) {
  return (
    <tr data-testid="hot-key" className={load.throttles ? "hot-row-over" : load.warning ? "hot-row-warm" : undefined}>
      <th scope="row" title={load.lines.map((l) => l.text).join("\n")}>
        {load.label}
      </th>
      <td>{(load.share * 100).toFixed(load.share < 0.01 ? 3 : 1)} %</td>
      <td>
        <Meter value={load.readUnits} ceiling={report.partitionReadUnits} label={`Read units on ${load.label}`} />
      </td>
      <td>
        <Meter value={load.writeUnits} ceiling={report.partitionWriteUnits} label={`Write units on ${load.label}`} />
      </td>
      <td>{load.throttles ? <strong className="hot-over">Throttles</strong> : load.warning ? <span className="hot-warm">Warm</span> : "—"}</td>
    </tr>
  );
}

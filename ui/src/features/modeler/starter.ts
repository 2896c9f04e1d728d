import type { Model } from "../../ipc/bindings.gen";

/**
 * The model the modeler opens with: the seed articles' Telemetry table — vehicles and their
 * readings in one collection per vehicle, VEH#V-7741 reporting ten times as often as the others —
 * with the access patterns of the articles. It has no depot index yet: the depot pattern is a
 * Scan until its suggested GSI is taken.
 */
export const TELEMETRY_STARTER: Model = {
  name: "Telemetry",
  description: "Vehicles and their readings: one collection per vehicle, META before its TS# readings",
  author: "",
  tables: [
    {
      name: "TelemetryModel",
      partitionKey: { name: "vehicleId", type: "S" },
      sortKey: { name: "recordedAt", type: "S" },
      billing: { mode: "onDemand" },
      globalIndexes: [],
      localIndexes: [],
      items: [],
    },
  ],
  entities: [
    {
      name: "Vehicle",
      table: "TelemetryModel",
      keys: [
        { attribute: "vehicleId", template: "VEH#{vehicleId}", presence: 1 },
        { attribute: "recordedAt", template: "META", presence: 1 },
      ],
      fields: [
        { name: "vehicleId", type: "S", generator: { kind: "sequence", prefix: "V-", start: 7741, step: 7, width: 4 } },
        { name: "plate", type: "S", generator: { kind: "sequence", prefix: "KX-", start: 7741, step: 7, width: 0 } },
        { name: "model", type: "S", generator: { kind: "choice", values: ["e-Sprinter", "Transit", "Ducato"], weights: [] } },
        { name: "depotCode", type: "S", generator: { kind: "choice", values: ["DEP-N", "DEP-S", "DEP-E", "DEP-W"], weights: [4, 2, 1, 1] } },
      ],
      count: 12,
      writesPerSecond: 0,
      retentionDays: null,
    },
    {
      name: "Reading",
      table: "TelemetryModel",
      keys: [
        { attribute: "vehicleId", template: "VEH#{vehicleId}", presence: 1 },
        { attribute: "recordedAt", template: "TS#{recordedAt}", presence: 1 },
      ],
      fields: [
        { name: "vehicleId", type: "S", generator: { kind: "ref", entity: "Vehicle", field: "vehicleId", skew: { hot: 1, factor: 10 } } },
        { name: "depotCode", type: "S", generator: { kind: "lookup", entity: "Vehicle", by: "vehicleId", field: "depotCode" } },
        { name: "recordedAt", type: "S", generator: { kind: "time", start: 1741939200, stepSeconds: 60, jitterSeconds: 5, per: "vehicleId" } },
        { name: "speedKph", type: "N", generator: { kind: "number", min: 0, max: 110, decimals: 0 } },
        { name: "fuelPct", type: "N", generator: { kind: "number", min: 5, max: 100, decimals: 0 } },
      ],
      count: 210,
      writesPerSecond: 40,
      retentionDays: 90,
    },
  ],
  patterns: [
    {
      name: "recent readings of one vehicle",
      entity: "Reading",
      given: { vehicleId: "V-7741" },
      range: null,
      orderBy: "recordedAt",
      descending: true,
      limit: 20,
      reads: [],
      ratePerSecond: 5,
      consistent: false,
    },
    {
      name: "a depot's readings, newest first",
      entity: "Reading",
      given: { depotCode: "DEP-N" },
      range: null,
      orderBy: "recordedAt",
      descending: true,
      limit: 50,
      reads: ["speedKph", "fuelPct"],
      ratePerSecond: 2,
      consistent: false,
    },
  ],
};

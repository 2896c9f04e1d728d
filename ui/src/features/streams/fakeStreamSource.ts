/** Test doubles of the stream commands (for the Stream and TTL views' tests). */
import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { Channel } from "@tauri-apps/api/core";
import type { Profile, StreamInfo, StreamRecord, TableDescription, TailInput, TailSummary, TailUpdate } from "../../ipc/bindings.gen";
import type { TailChannelFactory } from "./useStreamTail";
import type { Commands } from "../../ipc/CommandsContext";

export const embedded: Profile = { id: "embedded", name: "Embedded", color: "#4f7cff", region: "local", readOnly: false, connection: { kind: "embedded" } };

export const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 0,
  sizeBytes: 0,
  indexes: [],
  streamViewType: "NEW_AND_OLD_IMAGES",
  ttlAttribute: "expiresAt",
  createdAt: null,
  arn: null,
};

export const streamOn: StreamInfo = {
  table: "Telemetry",
  enabled: true,
  viewType: "NEW_AND_OLD_IMAGES",
  streamArn: "arn:aws:dynamodb:local:000000000000:table/Telemetry/stream/2026-12-04T00:00:00.000",
  label: "2026-12-04T00:00:00.000",
  status: "ENABLED",
  shards: 1,
  openShards: 1,
};

let sequence = 0;
export function change(eventName: string, keys: StreamRecord["keys"], oldImage: StreamRecord["oldImage"], newImage: StreamRecord["newImage"], ttl = false): StreamRecord {
  sequence += 1;
  return {
    eventId: `event-${sequence}`,
    eventName,
    shardId: "shardId-1",
    sequenceNumber: String(sequence).padStart(21, "0"),
    createdAt: 1_764_806_400,
    keys,
    newImage,
    oldImage,
    sizeBytes: 40,
    userIdentity: ttl ? { type: "Service", principalId: "dynamodb.amazonaws.com" } : null,
    ttlDeletion: ttl,
  };
}

/** A fake backend whose tail runs until cancelled; `send` delivers an update on its channel. */
export function fakeStream(info: StreamInfo = streamOn) {
  let onMessage: ((update: TailUpdate) => void) | null = null;
  let finish: ((summary: TailSummary) => void) | null = null;
  const makeChannel: TailChannelFactory = (handler) => {
    onMessage = handler;
    return {} as Channel<TailUpdate>;
  };
  const source = {
    streamInfo: vi.fn(async () => ({ status: "ok" as const, data: info })),
    tailStream: vi.fn(
      (_profileId: string, _input: TailInput, _channel: Channel<TailUpdate>) =>
        new Promise<{ status: "ok"; data: TailSummary }>((resolve) => {
          finish = (summary) => resolve({ status: "ok", data: summary });
        }),
    ),
    controlStreamTail: vi.fn(async () => true),
    cancelOperation: vi.fn(async () => {
      finish?.({ end: "cancelled", read: 0, delivered: 0 });
      return true;
    }),
  } satisfies Pick<Commands, "streamInfo" | "tailStream" | "controlStreamTail" | "cancelOperation">;
  let read = 0;
  const send = (records: StreamRecord[], extra: Partial<TailUpdate> = {}) =>
    act(() => {
      read += records.length;
      onMessage?.({ tailId: "t", records, read, delivered: read, shards: 1, paused: false, held: 0, notice: null, ...extra });
    });
  return { source, makeChannel, send, end: (summary: TailSummary) => act(() => finish?.(summary)) };
}


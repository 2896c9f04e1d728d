/** Bytes for people: 1,234 B, 12.3 KB, 4.5 MB (1 KB = 1,024 bytes, as DynamoDB counts). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString("en-US")} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A count for people: 17,280. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}

/** Capacity units as DynamoDB reports them: halves are real (0.5 RCU), more digits are not. */
export function formatUnits(units: number): string {
  return Number.isInteger(units * 2) ? String(units) : units.toFixed(2);
}

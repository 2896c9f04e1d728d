/**
 * The mark of an attribute an item does not have (not the same as an empty string), as every grid
 * shows it: a dash, named "absent" for screen readers and explained on hover.
 */
import "./Absent.css";

export const ABSENT_TITLE = "Absent: this item has no such attribute";

export function Absent() {
  return (
    <span className="absent-mark" role="img" aria-label="absent" title={ABSENT_TITLE}>
      —
    </span>
  );
}

import { useEffect, useRef, useState } from "react";

/**
 * `value`, once its content has stopped changing for `delay` ms. Values are compared by their
 * JSON, so a parent that rebuilds an equal object on every render does not restart the wait.
 */
export function useDebounced<T>(value: T, delay: number): T {
  const key = JSON.stringify(value);
  const latest = useRef(value);
  latest.current = value;
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(latest.current), delay);
    return () => clearTimeout(timer);
  }, [key, delay]);
  return settled;
}

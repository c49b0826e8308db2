// Options searched on the server as the user types (a company may have many thousands of rooms): the
// first page at once and again when `key` changes (another company), then 300 ms after typing stops;
// an older answer never overwrites a newer one.
import { useEffect, useRef, useState } from 'react';

export function useRemoteSearch<T>(fetch: (text: string) => Promise<T[]>, key: unknown) {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const search = (text: string) => {
    const mine = ++seq.current;
    setLoading(true);
    fetch(text.trim())
      .then((rows) => {
        if (mine === seq.current) setItems(rows);
      })
      .catch(() => {})
      .finally(() => {
        if (mine === seq.current) setLoading(false);
      });
  };

  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const onSearch = (text: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => search(text), 300);
  };
  return { items, loading, onSearch };
}

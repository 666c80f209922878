import { useQuery } from '@tanstack/react-query';
import { http } from '../api/client';

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(blob);
  });
}

/**
 * A header file that only its owner and admins may fetch, as an address an <img> can show.
 * A plain `src` would work in the browser (the cookie goes along) but not in the desktop app,
 * whose session is a bearer token only the API client sends. A data: URL rather than an object
 * URL, so that nothing has to be revoked when the cache lets go of it.
 */
export function useProtectedMediaUrl(url: string | null) {
  const query = useQuery({
    queryKey: ['protected-media', url],
    queryFn: async () => readAsDataUrl((await http.get<Blob>(url ?? '', { responseType: 'blob' })).data),
    enabled: url !== null,
    staleTime: Infinity,
  });
  return { src: query.data ?? null, isLoading: query.isLoading, isError: query.isError };
}

import type { ClientConfig } from '@vigil/contracts';
import { clientConfigRoutes } from '@vigil/contracts/routes';
import { api, request } from './apiSlice.ts';

/**
 * The deployment's run-time settings (GET /v0/api/config, any signed-in user), so one
 * build serves every deployment. Read once per session: they change only with a restart.
 */
export const clientConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    clientConfig: build.query<ClientConfig, void>({
      query: () => request(clientConfigRoutes.get),
      transformResponse: (body: { data: ClientConfig }) => body.data,
      extraOptions: { silent: true },
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useClientConfigQuery } = clientConfigApi;

/**
 * Build-time fallback while the settings load or if the call fails: VITE_COMMAND_PORTAL_URL,
 * else the server's default COMMAND_PORTAL_URL.
 */
export const FALLBACK_COMMAND_PORTAL_URL: string =
  (import.meta.env.VITE_COMMAND_PORTAL_URL as string | undefined) || 'https://command.example.com';

/** The external command portal Access Command opens (docs/web-pages.md "Pages"). */
export function useCommandPortalUrl(): string {
  return useClientConfigQuery().data?.commandPortalUrl ?? FALLBACK_COMMAND_PORTAL_URL;
}

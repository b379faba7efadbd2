import { ApiOutlined } from '@ant-design/icons';
import { Card, Typography } from 'antd';
import type { PortalDetail } from '@vigil/contracts';

/** A signed example report for this portal (docs/monitoring.md "Signing with curl"), ready to paste into a shell. */
export function exampleRequest(portal: Pick<PortalDetail, 'webhookUrl' | 'webhookSecret'>): string {
  return [
    `SECRET='${portal.webhookSecret ?? 'whsec_...'}'; URL='${portal.webhookUrl}'`,
    `BODY='{"type":"devices.reported","data":{"devices":[{"externalId":"cam-1","name":"Lobby Camera","deviceType":0,"deviceModel":"Axis P3245","status":1,"at":"'$(date -u +%Y-%m-%dT%H:%M:%SZ)'"}]}}'`,
    `ID="msg_$(date +%s%N)"; TS=$(date +%s)`,
    `KEY_HEX=$(printf '%s' "\${SECRET#whsec_}" | base64 -d | xxd -p -c 256)`,
    `SIG=$(printf '%s' "$ID.$TS.$BODY" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KEY_HEX -binary | base64)`,
    `curl -i "$URL" -H 'content-type: application/json' -H "webhook-id: $ID" -H "webhook-timestamp: $TS" \\`,
    `  -H "webhook-signature: v1,$SIG" --data-raw "$BODY"`,
  ].join('\n');
}

/**
 * First run of a portal (no device reported yet): the next step, connecting the device cloud to the
 * portal's webhook, with the URL, the shared secret and a copyable signed example request.
 */
export function ConnectWebhookCard({ portal }: { portal: PortalDetail }) {
  const example = exampleRequest(portal);
  return (
    <Card
      title={
        <span>
          <ApiOutlined /> Connect this portal's webhook
        </span>
      }
      style={{ marginBottom: 16 }}
      data-testid="connect-webhook"
    >
      <Typography.Paragraph>
        No device has reported yet. Point the customer's device cloud at this portal's webhook: it posts signed reports (Standard Webhooks)
        and the devices appear here within seconds.
      </Typography.Paragraph>
      <Typography.Text type="secondary">Webhook URL</Typography.Text>
      <Typography.Paragraph
        code
        copyable={{ text: portal.webhookUrl, tooltips: ['Copy Webhook URL', 'Copied'] }}
        style={{ wordBreak: 'break-all' }}
      >
        {portal.webhookUrl}
      </Typography.Paragraph>
      {portal.webhookSecret && (
        <>
          <Typography.Text type="secondary">Shared Secret</Typography.Text>
          <Typography.Paragraph
            code
            copyable={{ text: portal.webhookSecret, tooltips: ['Copy Shared Secret', 'Copied'] }}
            style={{ wordBreak: 'break-all' }}
          >
            {portal.webhookSecret}
          </Typography.Paragraph>
        </>
      )}
      <Typography.Text type="secondary">Example request (a shell with curl and openssl)</Typography.Text>
      <Typography.Paragraph copyable={{ text: example, tooltips: ['Copy example request', 'Copied'] }} style={{ marginBottom: 0 }}>
        <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>{example}</pre>
      </Typography.Paragraph>
    </Card>
  );
}

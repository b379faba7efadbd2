import { AppstoreAddOutlined, RocketOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../../../lib/session/permissions.ts';
import { AddPortalDialog, usePortalsQuery } from '../../portals/index.ts';
import { usePulseSummaryQuery } from '../api.ts';

/**
 * A new tenant's next step on Pulse (docs/web-pages.md "Empty states"): with no portal yet, add the
 * first one; with portals but no device reported, connect a portal's webhook. Nothing once devices report.
 */
export function FirstRunCard() {
  const portals = usePortalsQuery({ range: [0, 0] });
  const summary = usePulseSummaryQuery();
  const canAdd = useCan('portals:write');
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const portalCount = portals.data?.data.count;
  const devices = summary.data ? summary.data.data.onlineCount + summary.data.data.offlineCount : undefined;
  if (portalCount === undefined || devices === undefined || devices > 0) return null;

  const noPortal = portalCount === 0;
  return (
    <Card data-testid="first-run">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        <RocketOutlined /> {noPortal ? 'Add your first portal' : 'Connect a portal to its devices'}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {noPortal
          ? 'A portal is one customer whose security devices you monitor. Add it with its API key, then point its device cloud at the portal’s webhook: devices, alerts and reliability appear here as they report.'
          : 'No device has reported yet. Open a portal: its page shows the webhook URL, the shared secret and an example request to send the first report.'}
      </Typography.Paragraph>
      {noPortal ? (
        canAdd ? (
          <Button type="primary" icon={<AppstoreAddOutlined />} onClick={() => setAdding(true)}>
            Add Portal
          </Button>
        ) : (
          <Typography.Text>Ask your Admin or a Project Manager to add the first portal.</Typography.Text>
        )
      ) : (
        <Button type="primary" onClick={() => navigate('/dashboards/portals')}>
          Go to Portals
        </Button>
      )}
      {canAdd && <AddPortalDialog open={adding} onClose={() => setAdding(false)} />}
    </Card>
  );
}

import { AlertOutlined, ApiOutlined, CloudOutlined, KeyOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Card, Col, Row, Skeleton, theme } from 'antd';
import type { ReactNode } from 'react';
import { ErrorState } from '../../../components/TableStates.tsx';
import { SecondaryText } from '../../../components/Text.tsx';
import { useDeviceTypeTotalsQuery } from '../api.ts';
import { rowsOf } from '../rows.ts';

/** The Pulse summary labels (docs/web-pages.md "Pages": Camera, Intercom, Access, Alarm, Environmental), by type code. */
export const SUMMARY_TYPES: { label: string; icon: ReactNode }[] = [
  { label: 'Camera', icon: <VideoCameraOutlined /> },
  { label: 'Intercom', icon: <ApiOutlined /> },
  { label: 'Access', icon: <KeyOutlined /> },
  { label: 'Alarm', icon: <AlertOutlined /> },
  { label: 'Environmental', icon: <CloudOutlined /> },
];

/** Device counts by type: icon, big number, label (readable from across the room). */
export function DeviceTypeSummary() {
  const { data, isLoading, error, refetch } = useDeviceTypeTotalsQuery();
  const { token } = theme.useToken();
  if (error) return <ErrorState error={error} onRetry={refetch} />;
  return (
    <Row gutter={[16, 16]}>
      {SUMMARY_TYPES.map((t, code) => {
        const count = rowsOf<{ deviceType: number; totalCount: number }>(data?.data).find((r) => r.deviceType === code)?.totalCount ?? 0;
        return (
          <Col key={t.label} xs={12} sm={8} md={8} lg={{ flex: '1 1 0' }}>
            <Card size="small" styles={{ body: { display: 'flex', alignItems: 'center', gap: 12 } }}>
              <span aria-hidden style={{ fontSize: 28, color: token.colorPrimary }}>
                {t.icon}
              </span>
              {isLoading ? (
                // As tall as the count and its label (33 + 22 px), so the cards keep their height.
                <div style={{ height: 55, display: 'flex', alignItems: 'center' }}>
                  <Skeleton.Button active size="large" />
                </div>
              ) : (
                <div>
                  <div data-testid={`device-count-${t.label}`} style={{ fontSize: 30, fontWeight: 700, lineHeight: 1.1 }}>
                    {count}
                  </div>
                  <SecondaryText>{t.label}</SecondaryText>
                </div>
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

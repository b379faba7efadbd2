import { AlertOutlined, ApiOutlined, CheckOutlined, FileDoneOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Card, Col, List, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LIMITS } from '@vigil/contracts';

export function Section({ children, tinted = false }: { children: ReactNode; tinted?: boolean }) {
  const { token } = theme.useToken();
  return (
    <section
      style={{ background: tinted ? token.colorFillQuaternary : undefined, padding: 'clamp(32px, 6vw, 72px) clamp(16px, 5vw, 48px)' }}
    >
      <div style={{ maxWidth: 1160, margin: '0 auto' }}>{children}</div>
    </section>
  );
}

export const BENEFITS = [
  {
    icon: <AlertOutlined />,
    title: 'Know what is offline, now',
    text: 'Every portal reports through a signed webhook. Offline devices raise alerts within seconds and show up as live events on the wall screen.',
  },
  {
    icon: <SafetyCertificateOutlined />,
    title: 'Reliability you can prove',
    text: 'Each customer gets a reliability score against your goal, computed from the real status history of every device.',
  },
  {
    icon: <FileDoneOutlined />,
    title: 'Cases that close themselves out',
    text: 'Open a service case for the offline devices in one click, track it from New to Completed and keep the notes with it.',
  },
  {
    icon: <ApiOutlined />,
    title: 'Licenses and reports included',
    text: 'Renewals 90 days ahead, weekly to yearly reports per customer, exported as PDF or CSV for the customer meeting.',
  },
];

export function Benefits() {
  const { token } = theme.useToken();
  return (
    <Row gutter={[24, 24]}>
      {BENEFITS.map((b) => (
        <Col key={b.title} xs={24} sm={12} lg={6}>
          <Card style={{ height: '100%' }}>
            <div style={{ fontSize: 28, color: token.colorPrimary, marginBottom: 12 }} aria-hidden="true">
              {b.icon}
            </div>
            <Typography.Title level={4} style={{ marginTop: 0 }}>
              {b.title}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {b.text}
            </Typography.Paragraph>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

export const PRICE_TEXT = `${LIMITS.pricePerPortalUsd} USD`;

/** The price card: 49.99 USD per portal per month, one-month free trial. */
export function PriceCard() {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  return (
    <Card style={{ maxWidth: 420, margin: '0 auto', borderColor: token.colorPrimary, borderWidth: 2 }}>
      <Typography.Text strong style={{ color: token.colorPrimary, textTransform: 'uppercase', letterSpacing: 1 }}>
        Per portal
      </Typography.Text>
      <div style={{ margin: '12px 0' }}>
        <span style={{ fontSize: 48, fontWeight: 700 }}>{LIMITS.pricePerPortalUsd}</span>
        <span style={{ fontSize: 18, marginInlineStart: 6 }}>USD</span>
        <Typography.Text type="secondary"> per portal per month</Typography.Text>
      </div>
      <Typography.Paragraph strong>One-month free trial. Cancel any time.</Typography.Paragraph>
      <List
        size="small"
        split={false}
        dataSource={[
          'Unlimited users and devices per portal',
          'Live offline events and alerts',
          'Cases, licenses and reports',
          'Signed webhooks for your device clouds',
        ]}
        renderItem={(item) => (
          <List.Item style={{ paddingInline: 0 }}>
            <CheckOutlined style={{ color: token.colorSuccess, marginInlineEnd: 8 }} />
            {item}
          </List.Item>
        )}
      />
      <Button type="primary" size="large" block style={{ marginTop: 16 }} onClick={() => navigate('/auth/signup')}>
        Start the free trial
      </Button>
    </Card>
  );
}

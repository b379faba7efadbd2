import { MailOutlined, PhoneOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import { Section } from '../components.tsx';

const CHANNELS = [
  { icon: <MailOutlined />, title: 'Sales and support', body: <a href="mailto:hello@vigil.example">hello@vigil.example</a> },
  { icon: <PhoneOutlined />, title: 'Phone', body: <a href="tel:+15550100200">+1 555 0100 200</a> },
  { icon: <EnvironmentOutlined />, title: 'Office', body: '500 Market Street, Suite 12, San Francisco, CA' },
];

export default function ContactPage() {
  return (
    <Section>
      <Typography.Title>Contact us</Typography.Title>
      <Typography.Paragraph type="secondary" style={{ fontSize: 18, maxWidth: 640 }}>
        Questions about connecting your device clouds, a demo for your team, or help with your account: we answer within one business day.
      </Typography.Paragraph>
      <Row gutter={[24, 24]} style={{ marginTop: 24 }}>
        {CHANNELS.map((c) => (
          <Col key={c.title} xs={24} md={8}>
            <Card>
              <Typography.Title level={4} style={{ marginTop: 0 }}>
                <span aria-hidden="true" style={{ marginInlineEnd: 8 }}>
                  {c.icon}
                </span>
                {c.title}
              </Typography.Title>
              <Typography.Paragraph style={{ marginBottom: 0 }}>{c.body}</Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </Section>
  );
}

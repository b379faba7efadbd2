import { Col, Collapse, Row, Typography } from 'antd';
import { PriceCard, Section } from '../components.tsx';

export default function PricingPage() {
  return (
    <Section>
      <Typography.Title style={{ textAlign: 'center' }}>Pricing</Typography.Title>
      <Typography.Paragraph type="secondary" style={{ textAlign: 'center', fontSize: 18 }}>
        One price per portal (one monitored customer). Start with a one-month free trial.
      </Typography.Paragraph>
      <Row gutter={[48, 32]} style={{ marginTop: 32 }}>
        <Col xs={24} lg={12}>
          <PriceCard />
        </Col>
        <Col xs={24} lg={12}>
          <Collapse
            defaultActiveKey={['trial']}
            items={[
              {
                key: 'trial',
                label: 'How does the trial work?',
                children:
                  'You fill in your company details and enter a card at checkout. Nothing is charged for the first month (30 days); after that the subscription renews monthly.',
              },
              {
                key: 'portal',
                label: 'What is a portal?',
                children:
                  'A portal is one of your customers: its device cloud reports to Vigil through a signed webhook. You pay 49.99 USD per portal per month, whatever the number of devices.',
              },
              {
                key: 'users',
                label: 'How many users can I add?',
                children: 'As many as you need: admins, project managers and salespeople are included.',
              },
              { key: 'cancel', label: 'Can I cancel?', children: 'Yes, at any time; the subscription ends at the end of the paid month.' },
            ]}
          />
        </Col>
      </Row>
    </Section>
  );
}

"""AWS adapters: client factory, Cost Explorer spend, Price List refresh, SageMaker launches and tracking."""

FROM python:3.12-slim

from django.urls import path

from . import api

urlpatterns = [
    path("queue", api.QueueView.as_view(), name="api-queue"),
]

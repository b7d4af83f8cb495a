from django.urls import path

from pages import views
from pages.health import health

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("health/", health, name="health"),
]

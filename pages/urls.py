from django.urls import path

from pages import views
from pages.health import health

urlpatterns = [
    path("", views.home, name="home"),
    path("how-to-play/", views.how_to_play, name="how-to-play"),
    path("rules/", views.rules, name="rules"),
    path("health/", health, name="health"),
]

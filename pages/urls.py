from django.urls import path

from pages import views

# The paths and names are the ones these pages had in the games app.
urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
]

from django.urls import path

from tournaments import views

urlpatterns = [
    path("arenas/", views.arena_list, name="arenas"),
    path("arenas/<int:arena_id>/", views.arena_page, name="arena"),
    path("arenas/<int:arena_id>/join/", views.arena_join, name="arena-join"),
    path("arenas/<int:arena_id>/pause/", views.arena_pause, name="arena-pause"),
    path("arenas/games/<int:game_id>/", views.arena_game, name="game-arena"),
    path("arenas/<int:arena_id>/withdraw/", views.arena_withdraw, name="arena-withdraw"),
]
